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
// schema.
func ClassifyStdin(data []byte) StdinKind {
	switch {
	case DeclaresSiteData(data) && IsFnConfigData(data):
		return StdinNotInput
	case DeclaresSiteData(data) && !schemaDefinition.Match(data):
		return StdinSite
	case isCUE(data) && !isYAML(data):
		if schemaDefinition.Match(data) {
			return StdinNotInput
		}
		return StdinSite
	}
	return StdinManifests
}

// StdinUnit is the unit of one site read from standard input: its one
// file, named Stdin, is data, parsed as the syntax it is written in (see
// stdinExt). More than MaxFileSize bytes is refused as a file that large
// is.
func StdinUnit(data []byte) Unit {
	return Unit{source: Stdin, dir: ".", files: []string{Stdin}, stdin: &stdinInput{data: data, ext: stdinExt(data)}}
}

// stdinExt is the kind of site input data is, as a file's extension says
// it: JSON when it is a JSON object; YAML when it is a YAML mapping; CUE
// when it is CUE, whose syntax (comments, unquoted struct bodies without
// commas, definitions, attributes) is neither. Where the syntaxes agree,
// they mean the same values; each is parsed as its own kind is, so that
// positions are those of the same content in a file. Input that is none
// of them (a syntax error) is told by how it looks, so that the error is
// the one its own syntax gives: JSON when it starts with {, CUE when a
// line starts with // or ends with { (a CUE struct; YAML nests by
// indentation), else YAML.
func stdinExt(data []byte) string {
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, utf8BOM))
	object := bytes.HasPrefix(trimmed, []byte("{"))
	switch {
	case object && json.Valid(trimmed):
		return ".json"
	case isYAMLMapping(data):
		return ".yaml"
	case isCUE(data):
		return ".cue"
	case object:
		return ".json"
	case looksCUE.Match(data):
		return ".cue"
	}
	return ".yaml"
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

// isYAMLMapping reports whether data is YAML (or JSON) whose first document
// is a mapping. Decoding into a node does not expand aliases.
func isYAMLMapping(data []byte) bool {
	var doc yamlv3.Node
	if err := yamlv3.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return false
	}
	return doc.Kind == yamlv3.DocumentNode && len(doc.Content) == 1 && doc.Content[0].Kind == yamlv3.MappingNode
}

// isYAML reports whether every document of data is YAML (or JSON).
func isYAML(data []byte) bool {
	dec := yamlv3.NewDecoder(bytes.NewReader(data))
	for {
		var doc yamlv3.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// isCUE reports whether data is CUE syntax.
func isCUE(data []byte) bool {
	_, err := parser.ParseFile(Stdin, data)
	return err == nil
}
