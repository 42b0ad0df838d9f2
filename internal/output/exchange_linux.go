package output

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps src and dst atomically: renameat2(2) RENAME_EXCHANGE
// (Linux 3.15; ENOSYS on an older kernel, EINVAL on a file system without
// it).
func exchange(src, dst string) error {
	err := unix.Renameat2(unix.AT_FDCWD, src, unix.AT_FDCWD, dst, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		return errNoExchange
	}
	return err
}
