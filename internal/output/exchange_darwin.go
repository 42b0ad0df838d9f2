package output

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps src and dst atomically: renamex_np(2) RENAME_SWAP (macOS
// 10.12; ENOTSUP on a file system without it, such as HFS+ volumes).
func exchange(src, dst string) error {
	err := unix.RenamexNp(src, dst, unix.RENAME_SWAP)
	if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return errNoExchange
	}
	return err
}
