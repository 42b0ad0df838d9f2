package fidelity

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// Check validates one manifest (a single YAML or JSON document) and returns every problem found,
// as an *Error, or nil when the cluster would store the object exactly as written and its operator
// would accept it.
func Check(doc []byte) error {
	if e := check(doc); e != nil {
		return e
	}
	return nil
}

// CheckStream splits a '---' YAML stream (documents may be JSON) and checks each
// document; documents that are empty or only comments are skipped. The result joins one *Error
// per failing document (errors.Join), each carrying its 1-based Document index.
func CheckStream(stream []byte) error {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	var errs []error
	n := 0 // index among non-blank documents
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return errors.Join(append(errs, fmt.Errorf("document %d: read stream: %w", n+1, err))...)
		}
		if isBlank(doc) {
			continue
		}
		n++
		if e := check(doc); e != nil {
			e.Document = n
			errs = append(errs, e)
		}
	}
	return errors.Join(errs...)
}

// isBlank reports a document made only of whitespace, comments and a "---" separator.
func isBlank(doc []byte) bool {
	for _, line := range strings.Split(string(doc), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && line != "---" && !strings.HasPrefix(line, "#") {
			return false
		}
	}
	return true
}

func check(doc []byte) *Error {
	e := &Error{}
	add := func(stage Stage, path, msg string) { e.Problems = append(e.Problems, Problem{stage, path, msg}) }

	jsonDoc, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		add(StageParse, "", "not valid YAML/JSON: "+err.Error())
		return e
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(jsonDoc, &obj); err != nil || obj == nil {
		add(StageParse, "", "the document is not an object")
		return e
	}
	e.APIVersion, _ = obj["apiVersion"].(string)
	e.Kind, _ = obj["kind"].(string)
	if meta, ok := obj["metadata"].(map[string]any); ok {
		e.Name, _ = meta["name"].(string)
		e.Namespace, _ = meta["namespace"].(string)
	}
	if e.APIVersion == "" || e.Kind == "" {
		add(StageParse, "", "apiVersion and kind are required")
		return e
	}
	gv, err := schema.ParseGroupVersion(e.APIVersion)
	if err != nil {
		add(StageParse, "apiVersion", err.Error())
		return e
	}
	k := lookup(gv.WithKind(e.Kind))
	if k == nil {
		add(StageKind, "", fmt.Sprintf("%s for %s %s", ErrUnregisteredKind, e.APIVersion, e.Kind))
		return e
	}
	crd, err := k.crd()
	if err != nil {
		add(StageKind, "", fmt.Sprintf("the CRD for %s %s does not compile: %v", e.APIVersion, e.Kind, err))
		return e
	}

	e.Problems = append(e.Problems, decodeStrict(jsonDoc, k.newObj())...)
	if crd != nil {
		e.Problems = append(e.Problems, crd.validate(obj)...)
	} else {
		u := &unstructured.Unstructured{Object: obj}
		e.Problems = append(e.Problems, fieldProblems(StageMetadata,
			apivalidation.ValidateObjectMetaAccessor(u, k.namespaced, k.nameRule, field.NewPath("metadata")))...)
	}
	for _, rule := range k.rules {
		e.Problems = append(e.Problems, rule(obj)...)
	}
	if len(e.Problems) == 0 {
		return nil
	}
	return e
}

// decodeStrict decodes the document into the kind's Go type like the API server's strict field
// validation: case-sensitive, unknown and duplicate fields reported with their paths, and a
// mistyped field reported with the Go type it should have had.
func decodeStrict(jsonDoc []byte, into any) []Problem {
	var ps []Problem
	strictErrs, err := kjson.UnmarshalStrict(jsonDoc, into, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	for _, se := range strictErrs {
		path := ""
		var fe kjson.FieldError
		if errors.As(se, &fe) {
			path = fe.FieldPath()
		}
		msg := se.Error()
		if strings.HasPrefix(msg, "unknown field") {
			msg = "unknown field: the Go type has no such field"
		} else if strings.HasPrefix(msg, "duplicate field") {
			msg = "duplicate field"
		}
		ps = append(ps, Problem{StageDecode, path, msg})
	}
	if err != nil {
		// sigs.k8s.io/json keeps its error types internal; encoding/json reports the same type
		// mismatch with an exported field path.
		var te *json.UnmarshalTypeError
		if errors.As(json.Unmarshal(jsonDoc, newLike(into)), &te) {
			ps = append(ps, Problem{StageDecode, te.Field,
				fmt.Sprintf("mistyped field: JSON %s cannot be decoded into Go type %s", te.Value, te.Type)})
		} else {
			ps = append(ps, Problem{StageDecode, "", err.Error()})
		}
	}
	return ps
}

// newLike returns a fresh value of the type p points to, as a pointer.
func newLike(p any) any {
	return reflect.New(reflect.TypeOf(p).Elem()).Interface()
}

func fieldProblems(stage Stage, errs field.ErrorList) []Problem {
	ps := make([]Problem, 0, len(errs))
	for _, err := range errs {
		path := err.Field
		if path == "<nil>" { // field.Path(nil).String(): a rule on the object itself
			path = ""
		}
		ps = append(ps, Problem{stage, path, err.ErrorBody()})
	}
	return ps
}
