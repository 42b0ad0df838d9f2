package manifests

import (
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/suggest"
	"github.com/siteforge/siteforge/internal/yamlkeys"
)

// How the installer decodes its inputs. Both files go through
// sigs.k8s.io/yaml: YAML to JSON, then encoding/json into the installer's
// types, where a key matches a field's json name exactly or, failing that,
// regardless of case, and a scalar becomes a string when the field is one.
//
//   - install-config.yaml: openshift/installer pkg/asset/installconfig
//     installconfigbase.go AssetBase.LoadFromFile (IPI, UPI and, through
//     pkg/asset/agent/installconfig.go OptionalInstallConfig.Load, the
//     agent-based installer) decodes with yaml.UnmarshalStrict(...,
//     yaml.DisallowUnknownFields); an error other than "unknown field" is
//     returned ("failed to unmarshal install-config.yaml"): the file is
//     refused. An unknown field is logged as a warning and the file is
//     decoded again with yaml.Unmarshal, which drops it: the field is
//     ignored.
//   - agent-config.yaml: pkg/asset/agent/agentconfig/agent_config.go
//     AgentConfig.Load decodes with yaml.UnmarshalStrict (which adds
//     DisallowUnknownFields) and returns any error: an unknown field and a
//     value of the wrong type both refuse the file.
//
// sigs.k8s.io/yaml's UnmarshalStrict converts YAML to JSON with go-yaml
// v2's UnmarshalStrict (yaml.go UnmarshalStrict -> unmarshal ->
// yamlToJSONTarget), whose decoder refuses a mapping key set twice
// (go.yaml.in/yaml/v2 decode.go decoder.setMapIndex: "key ... already set
// in map"; sigs.k8s.io/yaml yaml_test.go TestUnmarshalStrictFails). That
// error is not an "unknown field" one, so both files are refused, whatever
// the two values are.
//
// DecodeProblem is what the installer says about one field.
type DecodeProblem struct {
	// Path is the field's path in the object (the key, for an unknown
	// field).
	Path []string
	// Unknown is set for a field the installer's types do not have.
	Unknown bool
	// Refused is set when the installer refuses the file for it; an
	// unknown install-config field is only ignored.
	Refused bool
	// Message says what the field is and what the installer expects;
	// Hint is a "did you mean" for an unknown field, or "".
	Message, Hint string
	// Duplicate is set for a key set a second time in its mapping; Pos is
	// then the second key's position.
	Duplicate bool
	Pos       diag.Position
}

// InstallConfigDecodeProblems are the fields of an install-config the
// installer refuses (a key set twice, a value of the wrong type) or ignores
// (an unknown field): the keys set twice first, then the rest in document
// order.
func InstallConfigDecodeProblems(o *Object) []DecodeProblem {
	return decodeProblems(o, installConfigShape, false)
}

// AgentConfigDecodeProblems are the fields of an agent-config the agent-based
// installer refuses (a key set twice, an unknown field, a value of the wrong
// type): the keys set twice first, then the rest in document order.
func AgentConfigDecodeProblems(o *Object) []DecodeProblem {
	return decodeProblems(o, agentConfigShape, true)
}

func decodeProblems(o *Object, s *shape, strict bool) []DecodeProblem {
	if o == nil || o.Root() == nil {
		return nil
	}
	var out []DecodeProblem
	for _, d := range yamlkeys.Find(o.Root()) {
		out = append(out, DecodeProblem{Path: append(d.Path, d.Key.Value), Refused: true, Duplicate: true,
			Pos:     nodePos(o.fileOf(d.Key), d.Key),
			Message: "is already set at line " + strconv.Itoa(d.First.Line) + " (a mapping key set twice)",
			Hint:    "keep one of the two"})
	}
	s.check(o.Root(), nil, strict, &out)
	return out
}

// shapeKind is the JSON kind a Go type of the installer decodes from.
type shapeKind int

const (
	anyValue shapeKind = iota // json.RawMessage, interface{} or a custom decoder
	stringValue
	numberValue
	boolValue
	listValue
	objectValue
)

// shape is what a field of the installer's types accepts: its kind, a
// list's element, an object's fields by json name (nil for a mapping of
// any keys: a map, or a struct not modelled here, whose fields are not
// checked).
type shape struct {
	kind   shapeKind
	elem   *shape
	fields map[string]*shape
	// moved names fields of other kinds written here by mistake, with the
	// field that says it in this object.
	moved map[string]string
	// open is set on an object whose fields are modelled only in part: a
	// key it does not list is not reported.
	open bool
}

var (
	anyS    = &shape{kind: anyValue}
	strS    = &shape{kind: stringValue}
	numS    = &shape{kind: numberValue}
	boolS   = &shape{kind: boolValue}
	mapS    = &shape{kind: objectValue}
	strList = list(strS)
)

func list(elem *shape) *shape { return &shape{kind: listValue, elem: elem} }

func objectOf(fields map[string]*shape) *shape { return &shape{kind: objectValue, fields: fields} }

// machinePool is openshift/installer pkg/types/machinepools.go MachinePool;
// its platform section is a mapping of the platform's own machine pool.
var machinePool = objectOf(map[string]*shape{
	"name": strS, "replicas": numS, "platform": mapS, "hyperthreading": strS,
	"architecture": strS, "fencing": mapS, "diskSetup": list(mapS),
})

// installConfigShape is openshift/installer pkg/types/installconfig.go
// InstallConfig, Networking, MachineNetworkEntry, ClusterNetworkEntry,
// OVNKubernetesConfig, Proxy, ImageContentSource, ImageDigestSource,
// Capabilities, BootstrapInPlace, OperatorPublishingStrategy and Platform
// (the platform keys of every release: alibabacloud and libvirt were read
// before they were removed, powervc and external since they were added).
var installConfigShape = &shape{kind: objectValue, fields: map[string]*shape{
	"apiVersion": strS, "kind": strS, "metadata": mapS,
	"additionalTrustBundle": strS, "additionalTrustBundlePolicy": strS,
	"sshKey": strS, "baseDomain": strS,
	"networking": objectOf(map[string]*shape{
		"networkType":       strS,
		"machineNetwork":    list(objectOf(map[string]*shape{"cidr": strS})),
		"clusterNetwork":    list(objectOf(map[string]*shape{"cidr": strS, "hostPrefix": numS, "hostSubnetLength": numS})),
		"serviceNetwork":    strList,
		"clusterNetworkMTU": numS,
		"ovnKubernetesConfig": objectOf(map[string]*shape{
			"ipv4": objectOf(map[string]*shape{"internalJoinSubnet": strS}),
		}),
		"machineCIDR": strS, "type": strS, "serviceCIDR": strS,
		"clusterNetworks": list(objectOf(map[string]*shape{"cidr": strS, "hostPrefix": numS, "hostSubnetLength": numS})),
	}),
	"controlPlane": machinePool, "arbiter": machinePool, "compute": list(machinePool),
	"platform": objectOf(map[string]*shape{
		"alibabacloud": mapS, "aws": mapS, "azure": mapS, "gcp": mapS, "ibmcloud": mapS,
		"libvirt": mapS, "none": mapS, "external": mapS, "powervc": mapS, "powervs": mapS,
		"baremetal": vipPlatform(), "openstack": vipPlatform(), "vsphere": vipPlatform(),
		"ovirt": vipPlatform(), "nutanix": vipPlatform(),
	}),
	"pullSecret": strS,
	"proxy":      objectOf(map[string]*shape{"httpProxy": strS, "httpsProxy": strS, "noProxy": strS}),
	"imageContentSources": list(objectOf(map[string]*shape{
		"source": strS, "mirrors": strList})),
	"imageDigestSources": list(objectOf(map[string]*shape{
		"source": strS, "mirrors": strList, "sourcePolicy": strS})),
	"publish":                    strS,
	"operatorPublishingStrategy": objectOf(map[string]*shape{"ingress": strS, "apiserver": strS}),
	"fips":                       boolS, "cpuPartitioningMode": strS, "credentialsMode": strS,
	"bootstrapInPlace": objectOf(map[string]*shape{"installationDisk": strS}),
	"capabilities": objectOf(map[string]*shape{
		"baselineCapabilitySet": strS, "additionalEnabledCapabilities": strList}),
	"featureSet": strS, "featureGates": strList,
}, moved: map[string]string{
	// openshift/api operator/v1alpha1 ImageContentSourcePolicySpec
	// repositoryDigestMirrors, config/v1 ImageDigestMirrorSetSpec
	// imageDigestMirrors, ImageTagMirrorSetSpec imageTagMirrors
	"repositoryDigestMirrors": "imageDigestSources",
	"imageDigestMirrors":      "imageDigestSources",
	"imageTagMirrors":         "imageDigestSources",
}}

// vipPlatform is a platform section with VIPs (openshift/installer
// pkg/types/{baremetal,vsphere,openstack,ovirt,nutanix} Platform: APIVIPs,
// IngressVIPs []string; DeprecatedAPIVIP, DeprecatedIngressVIP string): only
// the VIP fields' types are checked; its other fields are not modelled, so
// none is reported unknown.
func vipPlatform() *shape {
	return &shape{kind: objectValue, open: true, fields: map[string]*shape{
		"apiVIPs": strList, "ingressVIPs": strList, "apiVIP": strS, "ingressVIP": strS,
	}}
}

// agentConfigShape is openshift/installer pkg/types/agent/agent_config_type.go
// Config and Host; interfaces are openshift/assisted-service api/v1beta1
// Interface; networkConfig (v1beta1 NetConfig, an NMState document),
// rootDeviceHints and the BMC (pkg/types/baremetal RootDeviceHints, BMC)
// are mappings not modelled here.
var agentConfigShape = objectOf(map[string]*shape{
	"apiVersion": strS, "kind": strS, "metadata": mapS,
	"additionalNTPSources": strList, "rendezvousIP": strS, "bootArtifactsBaseURL": strS,
	"minimalISO": boolS,
	"hosts": list(objectOf(map[string]*shape{
		"hostname": strS, "role": strS, "rootDeviceHints": mapS,
		"interfaces":    list(objectOf(map[string]*shape{"name": strS, "macAddress": strS})),
		"networkConfig": mapS,
		"BMC":           mapS, // Host.BMC has no json tag: the Go field name
	})),
})

// field finds key among the object's fields as encoding/json does: the
// exact name, else one equal regardless of case.
func (s *shape) field(key string) (*shape, bool) {
	if f, ok := s.fields[key]; ok {
		return f, true
	}
	for name, f := range s.fields {
		if strings.EqualFold(name, key) {
			return f, true
		}
	}
	return nil, false
}

func (s *shape) names() []string {
	var out []string
	for name := range s.fields {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func (s *shape) check(n *yaml.Node, path []string, strict bool, out *[]DecodeProblem) {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || s.kind == anyValue || isNull(n) {
		return
	}
	at := func() []string { return append([]string(nil), path...) }
	if got, ok := s.accepts(n); !ok {
		*out = append(*out, DecodeProblem{Path: at(), Refused: true,
			Message: "is " + got + ", but the installer reads " + s.describe() + " here"})
		return
	}
	switch s.kind {
	case listValue:
		for i, c := range n.Content {
			s.elem.check(c, append(at(), strconv.Itoa(i)), strict, out)
		}
	case objectValue:
		if s.fields == nil {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			f, ok := s.field(key)
			if ok {
				f.check(n.Content[i+1], append(at(), key), strict, out)
				continue
			}
			if s.open {
				continue
			}
			p := DecodeProblem{Path: append(at(), key), Unknown: true, Refused: strict,
				Message: "is not a field the installer reads here"}
			if to := s.moved[key]; to != "" {
				p.Hint = "did you mean \"" + to + "\"? " + key + " is a field of the cluster's mirror objects, not of install-config"
			} else if near := suggest.Nearest(key, s.names()); near != "" {
				p.Hint = "did you mean \"" + near + "\"?"
			}
			*out = append(*out, p)
		}
	}
}

// accepts reports whether n decodes into the shape's kind, and what n is
// otherwise.
func (s *shape) accepts(n *yaml.Node) (string, bool) {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list", s.kind == listValue
	case yaml.MappingNode:
		return "a mapping", s.kind == objectValue
	}
	// a scalar: any scalar becomes a string for a string field
	// (sigs.k8s.io/yaml converts it to the target's type)
	switch s.kind {
	case stringValue:
		return "", true
	case numberValue:
		return "the string " + strconv.Quote(n.Value), n.Tag == "!!int" || n.Tag == "!!float"
	case boolValue:
		return "the string " + strconv.Quote(n.Value), n.Tag == "!!bool" || n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 && yaml11Bool(n.Value)
	}
	return "the scalar " + strconv.Quote(n.Value), false
}

func (s *shape) describe() string {
	switch s.kind {
	case stringValue:
		return "a string"
	case numberValue:
		return "a number"
	case boolValue:
		return "true or false"
	case listValue:
		return "a list"
	}
	return "a mapping"
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// yaml11Bool reports whether a plain scalar is a boolean in YAML 1.1, which
// sigs.k8s.io/yaml reads (through go-yaml v2) and the YAML 1.2 tags of
// go-yaml v3 do not say (yes, no, on, off, y, n).
func yaml11Bool(v string) bool {
	switch strings.ToLower(v) {
	case "y", "yes", "n", "no", "on", "off", "true", "false":
		return true
	}
	return false
}
