package output

import (
	"io"
	"io/fs"

	"golang.org/x/sys/unix"
)

// writeFile is os.WriteFile(name, data, perm) in three system calls: open
// (O_CREAT|O_TRUNC, perm before the umask, as os.WriteFile), write, close.
// A render writes a dozen small files per site, and os.OpenFile makes each
// descriptor ready for the runtime's poller first: an epoll registration
// the kernel refuses for a regular file and fcntl calls setting and
// clearing O_NONBLOCK, about five more system calls per file, and an
// os.File with a cleanup to collect.
func writeFile(name string, data []byte, perm uint32) error {
	var fd int
	for {
		var err error
		fd, err = unix.Open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, perm)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "open", Path: name, Err: err}
		}
		break
	}
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		if err == unix.EINTR {
			continue
		}
		if err == nil && n <= 0 {
			err = io.ErrShortWrite
		}
		if err != nil {
			unix.Close(fd)
			return &fs.PathError{Op: "write", Path: name, Err: err}
		}
		data = data[n:]
	}
	if err := unix.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return nil
}
