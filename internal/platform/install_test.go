package platform

import (
	"strings"
	"testing"
)

func TestCheckPullSecret(t *testing.T) {
	keys, err := CheckPullSecret([]byte(`{"auths":{"b.example":{"auth":"eDp5"},"a.example:5000/ns":{"credsStore":"pass"}}}`))
	if err != nil || strings.Join(keys, ",") != "b.example,a.example:5000/ns" {
		t.Errorf("valid: %v %v", keys, err)
	}
	for in, want := range map[string]string{
		`Zq9x`:                                "syntax error at byte 1",
		`null`:                                `no "auths" object`,
		`{"auths":null}`:                      `no "auths" object`,
		`{"auths":{}}`:                        `empty "auths" object`,
		`{"auths":[]}`:                        `not a JSON object`,
		`{"auths":{"Zq9x":1}}`:                `(number 1) that is not a JSON object`,
		`{"auths":{"Zq9x":null}}`:             `number 1 of 1`,
		`{"auths":{"Zq9x":{"username":"u"}}}`: `neither an "auth" nor a "credsStore"`,
		`"Zq9x"`:                              "is not a JSON object",
		`{"auths":{"Zq9x":{"auth":"x"}`:       "is not JSON",
	} {
		_, err := CheckPullSecret([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
			continue
		}
		if strings.Contains(err.Error(), "Zq9x") || strings.Contains(err.Error(), "'Z'") {
			t.Errorf("%s: the error quotes the secret: %v", in, err)
		}
	}
}

func TestAuthKeyRegistry(t *testing.T) {
	for key, want := range map[string]string{
		"quay.example.com:8443":         "quay.example.com:8443",
		"quay.example.com:8443/ns/repo": "quay.example.com:8443",
		"https://quay.example.com/v1/":  "quay.example.com",
		"http://localhost:5000":         "localhost:5000",
		"docker.io":                     "index.docker.io",
		"registry-1.docker.io/library":  "index.docker.io",
	} {
		if got := AuthKeyRegistry(key); got != want {
			t.Errorf("AuthKeyRegistry(%q) = %q, want %q", key, got, want)
		}
	}
	if got := MirrorHost("mirror.example.com:8443/ocp4/release"); got != "mirror.example.com:8443" {
		t.Errorf("MirrorHost: %q", got)
	}
	if got := MirrorHost("docker.io/library"); got != "index.docker.io" {
		t.Errorf("MirrorHost docker.io: %q", got)
	}
}
