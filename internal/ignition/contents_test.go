package ignition

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func TestContents(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat("x", 1000)))
	zw.Close()
	for name, tc := range map[string]struct {
		source, compression, want string
		err                       error
	}{
		"percent-encoded": {"data:,a%20b%0A", "", "a b\n", nil},
		"base64":          {"data:;base64," + base64.StdEncoding.EncodeToString([]byte("hi")), "", "hi", nil},
		"gzip":            {"data:;base64," + base64.StdEncoding.EncodeToString(gz.Bytes()), "gzip", strings.Repeat("x", 1000), nil},
		"remote":          {"https://example.com/x", "", "", ErrNotDataURL},
		"too large":       {"data:,abc", "", "", ErrTooLarge},
		"gzip too large":  {"data:;base64," + base64.StdEncoding.EncodeToString(gz.Bytes()), "gzip", "", ErrTooLarge},
	} {
		limit := int64(1000)
		if name == "too large" {
			limit = 2
		}
		if name == "gzip too large" {
			limit = 999
		}
		got, err := Contents(tc.source, tc.compression, limit)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: err %v, want %v", name, err, tc.err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %q %v", name, got, err)
		}
	}
	if _, err := Contents("data:,x", "xz", 10); err == nil {
		t.Error("unknown compression accepted")
	}
}
