// Package ignition decodes file contents the way Ignition writes them on a
// node: the one reader of an Ignition `contents` (or `append`) source for
// every check that needs the bytes a node will get.
package ignition

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vincent-petithory/dataurl"
)

// ErrNotDataURL is a source Ignition fetches from elsewhere (http, s3,
// ...): its bytes are not in the config.
var ErrNotDataURL = errors.New("contents are not a data URL")

// ErrTooLarge is contents that decompress past the caller's limit.
var ErrTooLarge = errors.New("contents decompress past the limit")

// Contents returns the bytes a data: URL source writes, decompressed as
// compression says ("" or "gzip"), at most limit bytes. Ignition decodes
// the URL with the same library (ignition internal/resource/url.go
// fetchFromDataURL, dataurl.DecodeString) and decompresses in uncompress
// (gzip only).
func Contents(source, compression string, limit int64) ([]byte, error) {
	if !strings.HasPrefix(source, "data:") {
		return nil, ErrNotDataURL
	}
	u, err := dataurl.DecodeString(source)
	if err != nil {
		return nil, fmt.Errorf("contents are not a valid data URL: %w", err)
	}
	switch compression {
	case "":
		if int64(len(u.Data)) > limit {
			return nil, ErrTooLarge
		}
		return u.Data, nil
	case "gzip":
		return Gunzip(u.Data, limit)
	}
	return nil, fmt.Errorf("unknown compression %q (Ignition knows gzip)", compression)
}

// Gunzip decompresses data, at most limit bytes.
func Gunzip(data []byte, limit int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(out)) > limit {
		return nil, ErrTooLarge
	}
	return out, nil
}
