package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"

	"cuelang.org/go/cue/parser"
	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/internal/fsread"
)

// Stdin is the file name positions give for what is read from standard
// input (PATH -).
const Stdin = "<stdin>"

// StdinKind is what standard input holds, for a command that reads a site
// or a stream of manifests there (lint -).
type StdinKind int

const (
	// StdinManifests is a stream of manifests (YAML or JSON documents).
	StdinManifests StdinKind = iota
	// StdinSite is one site (YAML, JSON or CUE): StdinUnit loads it.
	StdinSite
	// StdinNotInput is neither: a kustomize function config (SiteRender,
	// SiteLint) or the exported schema, which lint leaves out as it
	// leaves out such a file.
	StdinNotInput
)

// ClassifyStdin tells a site on standard input from a stream of manifests
// as a file's content is told (internal/discover): input declaring the
// site API version (siteforge.dev/v1alpha1) is a site, unless it is a
// kustomize function config. CUE is told apart by its syntax (StdinUnit);
// input that is not YAML (or JSON) at all but is CUE is a CUE site too (a
// site may leave apiVersion to the schema), unless it is the exported
// schema. Of a site it returns the syntax it is written in too (the
// extension a file of it would have: StdinUnit's syntax), told from the
// parses the classification made, so that no syntax parses it twice.
func ClassifyStdin(data []byte) (StdinKind, string) {
	t := &stdinText{data: data}
	switch {
	case DeclaresSiteData(data) && IsFnConfigData(data):
		return StdinNotInput, ""
	case DeclaresSiteData(data) && !schemaDefinition.Match(data):
		return StdinSite, t.ext()
	case t.isCUE() && !t.isYAML():
		if schemaDefinition.Match(data) {
			return StdinNotInput, ""
		}
		return StdinSite, t.ext()
	}
	return StdinManifests, ""
}

// StdinUnit is the unit of one site read from standard input: its one
// file, named Stdin, is data, parsed as the syntax it is written in:
// syntax as ClassifyStdin found it, or, "", told from data (stdinExt).
// More than MaxFileSize bytes is refused as a file that large is.
func StdinUnit(data []byte, syntax string) Unit {
	if syntax == "" {
		syntax = stdinExt(data)
	}
	return Unit{source: Stdin, dir: ".", files: []string{Stdin}, stdin: &stdinInput{data: data, ext: syntax}}
}

// stdinExt is the kind of site input data is, as a file's extension says
// it (stdinText.ext).
func stdinExt(data []byte) string {
	return (&stdinText{data: data}).ext()
}

// stdinText is data read from standard input and what the syntaxes make
// of it, each parsed at most once: as CUE, and as a stream of YAML
// documents, decoded as far as a question needs.
type stdinText struct {
	data []byte
	// cue: parsed as CUE (cueOK: without error)
	cue, cueOK bool
	// yaml decodes the documents; docs decoded so far, yamlErr the error
	// that ended decoding (io.EOF: every document decoded), firstMapping
	// whether the first document is a mapping
	yaml         *yamlv3.Decoder
	docs         int
	yamlErr      error
	firstMapping bool
}

// ext is the kind of site input data is, as a file's extension says
// it: JSON when it is a JSON object; YAML when it is a YAML mapping; CUE
// when it is CUE, whose syntax (comments, unquoted struct bodies without
// commas, definitions, attributes) is neither. Where the syntaxes agree,
// they mean the same values; each is parsed as its own kind is, so that
// positions are those of the same content in a file. Input that is none
// of them (a syntax error) is told by how it looks, so that the error is
// the one its own syntax gives: JSON when it starts with {, CUE when a
// line starts with // or ends with { (a CUE struct; YAML nests by
// indentation), else YAML.
func (t *stdinText) ext() string {
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(t.data, utf8BOM))
	object := bytes.HasPrefix(trimmed, []byte("{"))
	switch {
	case object && json.Valid(trimmed):
		return ".json"
	case t.isYAMLMapping():
		return ".yaml"
	case t.isCUE():
		return ".cue"
	case object:
		return ".json"
	case looksCUE.Match(t.data):
		return ".cue"
	}
	return ".yaml"
}

// isCUE reports whether data is CUE syntax.
func (t *stdinText) isCUE() bool {
	if !t.cue {
		_, err := parser.ParseFile(Stdin, t.data)
		t.cue, t.cueOK = true, err == nil
	}
	return t.cueOK
}

// decodeYAML decodes the documents of data until n are decoded (n < 0:
// all of them) or decoding ends.
func (t *stdinText) decodeYAML(n int) {
	if t.yaml == nil {
		t.yaml = yamlv3.NewDecoder(bytes.NewReader(t.data))
	}
	for t.yamlErr == nil && (n < 0 || t.docs < n) {
		var doc yamlv3.Node
		if t.yamlErr = t.yaml.Decode(&doc); t.yamlErr != nil {
			return
		}
		if t.docs == 0 {
			t.firstMapping = doc.Kind == yamlv3.DocumentNode && len(doc.Content) == 1 && doc.Content[0].Kind == yamlv3.MappingNode
		}
		t.docs++
	}
}

// isYAMLMapping reports whether data is YAML (or JSON) whose first
// document is a mapping. Decoding into a node does not expand aliases.
func (t *stdinText) isYAMLMapping() bool {
	t.decodeYAML(1)
	return t.firstMapping
}

// isYAML reports whether every document of data is YAML (or JSON).
func (t *stdinText) isYAML() bool {
	t.decodeYAML(-1)
	return errors.Is(t.yamlErr, io.EOF)
}

// looksCUE matches a line of CUE that YAML does not write: a // comment,
// or a struct opened at the end of a line (not in a # comment).
var looksCUE = regexp.MustCompile(`(?m)^[ \t]*//|^[^#\n]*\{[ \t]*$`)

// stdinInput is a site read from standard input, and the kind of input
// its syntax says it is.
type stdinInput struct {
	data []byte
	ext  string
}

// Read reads one of the unit's input files: from disk (ReadInput), or
// the bytes read from standard input.
func (u Unit) Read(name string) ([]byte, error) {
	if u.stdin == nil || name != Stdin {
		return ReadInput(name)
	}
	if n := int64(len(u.stdin.data)); n > MaxFileSize {
		return nil, &fsread.TooLargeError{Path: Stdin, Size: n, Limit: MaxFileSize}
	}
	return u.stdin.data, nil
}

// ext is the kind of input the unit's file name is: its extension, or
// the syntax of the site read from standard input.
func (u Unit) ext(name string) string {
	if u.stdin != nil && name == Stdin {
		return u.stdin.ext
	}
	return extOf(name)
}
