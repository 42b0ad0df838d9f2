//go:build !linux && !darwin

package output

// exchange has no atomic form here: the caller moves the folders one after
// the other.
func exchange(src, dst string) error { return errNoExchange }
