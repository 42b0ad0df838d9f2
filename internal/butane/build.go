package butane

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	butaneconfig "github.com/coreos/butane/config"
	"github.com/coreos/butane/config/common"
	vyaml "github.com/coreos/vcontext/yaml"
	yaml2 "go.yaml.in/yaml/v2"
	"gopkg.in/yaml.v3"
	k8syaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
)

// Config is one MachineConfig to author.
type Config struct {
	// Name is the MachineConfig name (metadata.name).
	Name string
	// Role is the MachineConfigPool the config is for: the value of the
	// machineconfiguration.openshift.io/role label (master, worker or a
	// custom pool's name).
	Role string
	// Labels are extra metadata labels; the role label wins over a label of
	// the same key here.
	Labels map[string]string
	// Body is the Butane body: storage, systemd, kernel_arguments,
	// extensions, ... without variant, version or metadata, which Build adds.
	// Users write it as text; generators build it with Body.YAML.
	Body []byte
	// Origin is where the body comes from, to point Butane's findings at
	// the user's input.
	Origin Origin
}

// Origin says where a body comes from in the user's input.
type Origin struct {
	// Pos is the position of the value the body comes from: for a user's
	// snippet, the position of the string itself (the `|` of a YAML block
	// scalar, the opening `"""` of a CUE multi-line string); for a
	// generated body, the site field it is generated from.
	Pos diag.Position
	// Path is that field's path in the site (`machineConfigs."99-worker-chrony".butane`).
	Path string
	// Snippet says Body is the user's text, verbatim: findings are mapped to
	// the line inside it. Otherwise (a generated body) every finding is
	// reported at Pos.
	Snippet bool
}

// Result is a translated MachineConfig.
type Result struct {
	// SpecVersion is the Butane openshift spec version used.
	SpecVersion string
	// Butane is the complete Butane document (.bu): variant, version and
	// metadata, then the body as given.
	Butane []byte
	// Object is the translated MachineConfig decoded (a fresh map, numbers
	// as json.Number), for a generators.Artifact, which writes it.
	Object map[string]any
	// Warnings are Butane's warnings, at the user's position: shown, and
	// errors under --strict.
	Warnings diag.List
}

// translateOptions are the Butane options of every translation:
//   - no FilesDir: `local:` sources are refused (a render reads no files);
//   - no automatic gzip of contents: a MachineConfig stays readable in
//     review, and its bytes do not depend on compress/flate's output.
var translateOptions = common.TranslateBytesOptions{
	TranslateOptions: common.TranslateOptions{NoResourceAutoCompression: true},
}

// translations counts the Butane library's translations (tests: a changed
// input must not be served from the cache).
var translations atomic.Int64

// reservedFields are the top-level Butane fields Build writes itself.
var reservedFields = map[string]string{
	"variant":  "siteforge writes variant: openshift",
	"version":  "siteforge picks the spec version from cluster.version",
	"metadata": "siteforge writes metadata: the name is the MachineConfig's name and the role label its pool",
}

// Build composes the Butane document for cfg, translates it with the Butane
// library for the cluster's OpenShift version and returns both. Problems in
// the body are returned as a diag.List at the user's position; any other
// error means the caller passed a bad Config.
func Build(cfg Config, ocpVersion string) (*Result, error) {
	if cfg.Name == "" || cfg.Role == "" {
		return nil, fmt.Errorf("butane: MachineConfig needs a name and a role (name %q, role %q)", cfg.Name, cfg.Role)
	}
	spec, err := SpecVersion(ocpVersion)
	if err != nil {
		return nil, err
	}
	head := header(cfg, spec)
	bu := append(head[:len(head):len(head)], cfg.Body...)
	if !bytes.HasSuffix(bu, []byte("\n")) {
		bu = append(bu, '\n')
	}
	// Only clean translations are kept, and the document holds the body
	// verbatim: a kept one's body passed checkBody, which depends on the
	// body alone, and is not parsed again. The secrets check depends on
	// the origin too (a snippet's), so it always runs.
	obj, cached := cache.lookup(bu)
	m := newMapper(cfg.Origin, cfg.Body, bytes.Count(head, []byte("\n")), spec)
	if !cached {
		if diags := m.checkBody(cfg.Body); len(diags) > 0 {
			return nil, diags.Sort()
		}
	}
	if cfg.Origin.Snippet {
		if diags := m.checkSecrets(cfg.Body); len(diags) > 0 {
			return nil, diags.Sort()
		}
	}
	if cached {
		return &Result{SpecVersion: spec, Butane: bu, Object: obj}, nil
	}
	translations.Add(1)
	out, rep, err := butaneconfig.TranslateBytes(bu, translateOptions)
	var errs, warns diag.List
	if len(rep.Entries) > 0 {
		tree, _ := vyaml.UnmarshalToContext(bu)
		errs, warns = m.report(rep, tree)
	}
	if err != nil && len(errs) == 0 {
		errs = m.translateError(err)
	}
	if len(errs) > 0 {
		return nil, errs.Sort()
	}

	obj, err = decodeMachineConfig(out)
	if err != nil {
		return nil, fmt.Errorf("butane: decode MachineConfig %s: %w", cfg.Name, err)
	}
	if len(rep.Entries) == 0 {
		cache.store(bu, obj, len(out))
	}
	return &Result{SpecVersion: spec, Butane: bu, Object: obj, Warnings: warns.Sort()}, nil
}

// header is the part of the .bu siteforge writes: variant, version and
// metadata, with sorted labels.
func header(cfg Config, spec string) []byte {
	labels := map[string]string{}
	for k, v := range cfg.Labels {
		labels[k] = v
	}
	labels[platform.MachineConfigRoleLabel] = cfg.Role
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	fmt.Fprintf(&b, "variant: %s\nversion: %s\nmetadata:\n  name: %s\n  labels:\n", Variant, spec, scalar(cfg.Name))
	for _, k := range keys {
		fmt.Fprintf(&b, "    %s: %s\n", scalar(k), scalar(labels[k]))
	}
	return b.Bytes()
}

// scalar is s as a YAML string scalar, quoted only where YAML needs it.
// Names, roles and labels repeat across a fleet's MachineConfigs: the
// encodings are remembered (a bounded table, safe for concurrent workers).
func scalar(s string) string {
	if q, ok := scalars.Load(s); ok {
		return q.(string)
	}
	b, err := yaml.Marshal(s)
	q := strings.TrimSuffix(string(b), "\n")
	if err != nil {
		q = strconv.Quote(s)
	}
	if scalarCount.Add(1) > maxScalars {
		scalars.Clear()
		scalarCount.Store(0)
	}
	scalars.Store(s, q)
	return q
}

const maxScalars = 4096

var (
	scalars     sync.Map // string -> its YAML scalar
	scalarCount atomic.Int64
)

// checkBody refuses what cannot be spliced under siteforge's header: YAML
// syntax errors, document markers, a body that is not a block mapping at
// column 1, and the fields siteforge writes itself.
func (m *mapper) checkBody(body []byte) diag.List {
	var out diag.List
	for i, line := range strings.Split(string(body), "\n") {
		if isDocumentMarker(line) {
			out = append(out, m.diag(m.bodyPos(i+1, 1), "",
				fmt.Sprintf("the Butane body is one YAML document: %q is not allowed", strings.TrimSpace(line)),
				"remove the document marker; siteforge writes the document header (variant, version, metadata)"))
		}
	}
	if len(out) > 0 {
		return out
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(body, &doc); err != nil {
		return m.yamlErrors(syntaxError(body, err), func(line int) diag.Position { return m.bodyPos(line, 0) })
	}
	if len(doc.Content) == 0 {
		return diag.List{m.diag(m.origin.Pos, "", "the Butane body is empty",
			"write the Butane fields (storage, systemd, ...) as YAML")}
	}
	root := doc.Content[0]
	at := m.bodyPos(root.Line, root.Column)
	switch {
	case root.Kind != yaml.MappingNode:
		return diag.List{m.diag(at, "", fmt.Sprintf("the Butane body is a %s, not a mapping of Butane fields", kindName(root)),
			"write the Butane fields (storage, systemd, ...) as a YAML mapping")}
	case root.Style&yaml.FlowStyle != 0:
		return diag.List{m.diag(at, "", "the Butane body is a flow mapping ({...})",
			"write it in YAML block style (storage:, then its fields indented below)")}
	case root.Column != 1:
		return diag.List{m.diag(at, "", "the Butane body is indented",
			"start its fields (storage:, systemd:, ...) in the first column")}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if why, ok := reservedFields[k.Value]; ok {
			out = append(out, m.diag(m.bodyPos(k.Line, k.Column), k.Value,
				fmt.Sprintf("%s is not allowed in the Butane body", k.Value), why))
		}
	}
	return out
}

func isDocumentMarker(line string) bool {
	line = strings.TrimRight(line, "\r")
	for _, mk := range []string{"---", "..."} {
		if line == mk || strings.HasPrefix(line, mk+" ") || strings.HasPrefix(line, mk+"\t") {
			return true
		}
	}
	return strings.HasPrefix(line, "%")
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "single value"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

// syntaxError returns err with the line of the problem rather than the line
// where the enclosing block starts, which is what yaml.v3 names for parser
// errors ("did not find expected key" at the top of the body). The v2 parser
// names the problem's line, or for parser errors the line just above it.
func syntaxError(body []byte, err error) error {
	var v any
	err2 := yaml2.Unmarshal(body, &v)
	g3, g2 := reYAMLLine.FindStringSubmatch(err.Error()), reYAMLLine.FindStringSubmatch(errString(err2))
	if g3 == nil || g2 == nil {
		return err
	}
	l3, _ := strconv.Atoi(g3[1])
	l2, _ := strconv.Atoi(g2[1])
	if l2 <= l3 {
		return err
	}
	return fmt.Errorf("yaml: line %d: %s", l2, g3[2])
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

var reYAMLLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlErrors maps a YAML decoding error to diagnostics: a syntax error, or,
// from Butane decoding the .bu into its types, type mismatches. at maps a
// line of the decoded text to the user's input.
func (m *mapper) yamlErrors(err error, at func(line int) diag.Position) diag.List {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	var ue common.ErrUnmarshal
	switch {
	case errors.As(err, &te):
		msgs = te.Errors
	case errors.As(err, &ue):
		msgs = []string{ue.Detail}
	}
	var out diag.List
	for _, msg := range msgs {
		pos := m.origin.Pos
		if g := reYAMLLine.FindStringSubmatch(msg); g != nil {
			line, _ := strconv.Atoi(g[1])
			pos = at(line)
			msg = g[2]
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		if te != nil {
			msg = typeMessage(msg)
		} else {
			msg = "YAML syntax error: " + msg
		}
		out = append(out, m.diag(pos, "", msg, ""))
	}
	return out
}

var (
	reTypeError = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `[^`]*`)? into (.+)$")
	reGoPkg     = regexp.MustCompile(`\b\w+\.`)
	yamlKinds   = map[string]string{"seq": "a list", "map": "a mapping", "str": "a string", "int": "a number",
		"float": "a number", "bool": "a boolean", "null": "null"}
)

// typeMessage rewrites yaml.v3's "cannot unmarshal !!seq into v0_5.KernelArguments"
// as "wrong type: a list where Butane expects KernelArguments".
func typeMessage(msg string) string {
	g := reTypeError.FindStringSubmatch(msg)
	if g == nil {
		return msg
	}
	kind, ok := yamlKinds[g[1]]
	if !ok {
		kind = "!!" + g[1]
	}
	want := reGoPkg.ReplaceAllString(g[2], "")
	want = strings.NewReplacer("[]", "list of ", "*", "").Replace(want)
	return fmt.Sprintf("wrong type: %s where Butane expects %s", kind, want)
}

// decodeMachineConfig decodes Butane's MachineConfig YAML into a fresh map
// (Butane's header comment is not in it).
func decodeMachineConfig(out []byte) (map[string]any, error) {
	j, err := k8syaml.YAMLToJSON(out)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	return obj, nil
}
