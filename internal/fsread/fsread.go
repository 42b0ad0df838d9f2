// Package fsread is how siteforge reads a file the user named or a walk
// found: regular files only (a device, a FIFO or a socket is refused, and
// opening never blocks), bounded by the bytes actually read, not by what
// stat claims (a symbolic link to /dev/zero is a character device; a file
// in /proc says it has 0 bytes). Paths that must stay inside a root (the
// KRM function's spec.paths) are confined after resolving symbolic links.
package fsread

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// NotRegularError is a path that is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Kind(e.Mode))
}

// TooLargeError is a file larger than the limit. Size is what stat said, or
// 0 when the file grew past the limit while it was read.
type TooLargeError struct {
	Path  string
	Size  int64
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("%s is %d bytes, larger than the %d-byte limit", e.Path, e.Size, e.Limit)
	}
	return fmt.Sprintf("%s holds more than the %d-byte limit", e.Path, e.Limit)
}

// Kind names a file type for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "a regular file"
}

// File reads the regular file at path (symbolic links are followed), at
// most limit bytes.
func File(path string, limit int64) ([]byte, error) { return read(path, limit, 0) }

// FileNoFollow is File for a path whose last element must not be a
// symbolic link (siteforge's own output files).
func FileNoFollow(path string, limit int64) ([]byte, error) {
	return read(path, limit, syscall.O_NOFOLLOW)
}

func read(path string, limit int64, flags int) ([]byte, error) {
	var fi fs.FileInfo
	var err error
	if flags&syscall.O_NOFOLLOW != 0 {
		fi, err = os.Lstat(path)
	} else {
		fi, err = os.Stat(path)
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Limit: limit}
	}
	// O_NONBLOCK: if the path became a FIFO since the stat, open returns at
	// once instead of waiting for a writer; the fstat below refuses it.
	// The file is read with plain system calls: an os.File would try to
	// register it with the runtime's poller (epoll_ctl, fcntl) on every
	// read of every input.
	fd, err := open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|flags)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) && flags&syscall.O_NOFOLLOW != 0 {
			return nil, &NotRegularError{Path: path, Mode: fs.ModeSymlink}
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if mode := fileMode(uint32(st.Mode)); !mode.IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: mode}
	}
	// the size stat gives, or what a /proc file holds beyond its size 0:
	// bounded by the bytes read
	data := make([]byte, 0, min(max(st.Size, 511), limit)+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := unix.Read(fd, data[len(data):cap(data)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, &TooLargeError{Path: path, Limit: limit}
		}
	}
	return data, nil
}

// open is unix.Open, again when interrupted.
func open(path string, flags int) (int, error) {
	for {
		fd, err := unix.Open(path, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// fileMode is the fs.FileMode type bits of a stat mode (what os.Stat
// reports).
func fileMode(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	case unix.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

// OutsideError is a path that leaves the root it must stay in.
type OutsideError struct {
	Path, Root, Why string
}

func (e *OutsideError) Error() string {
	return fmt.Sprintf("%s %s", e.Path, e.Why)
}

// Confine resolves p (relative to root, as a user wrote it) and checks that
// it stays inside root after resolving symbolic links. It returns the path
// to use (root joined with p). p must exist.
func Confine(root, p string) (string, error) {
	return ConfineWithin(root, "the kustomization root", root, p)
}

// ConfineWithin resolves p (relative to base, a folder inside bound, as a
// user wrote it) and checks that it stays inside bound (boundName says what
// bound is, for the error): as written, with ".." taken from base's real
// location as the kernel resolves it, and after resolving symbolic links. It
// returns the path to use (base joined with p). p must exist.
func ConfineWithin(bound, boundName, base, p string) (string, error) {
	if p == "" {
		return "", &OutsideError{Path: p, Root: bound, Why: "is empty"}
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return "", &OutsideError{Path: p, Root: bound, Why: "is an absolute path; give a path relative to the kustomization folder"}
	}
	realBound, err := realAbs(bound)
	if err != nil {
		return "", err
	}
	realBase, err := realAbs(base)
	if err != nil {
		return "", err
	}
	clean := filepath.Clean(filepath.FromSlash(p))
	if !Within(realBound, filepath.Join(realBase, clean)) {
		return "", &OutsideError{Path: p, Root: bound, Why: "leaves " + boundName}
	}
	joined := filepath.Join(base, clean)
	real, err := realAbs(joined)
	if err != nil {
		return "", err
	}
	if !Within(realBound, real) {
		return "", &OutsideError{Path: p, Root: bound, Why: "resolves (through a symbolic link) outside " + boundName}
	}
	return joined, nil
}

// realAbs is p absolute, with its symbolic links resolved.
func realAbs(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(real)
}

// Within reports whether the absolute, clean path p is root or lies under
// it.
func Within(root, p string) bool {
	if root == p {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(p, root)
}

// Describe is an error as a short phrase for a diagnostic, without the
// path (the diagnostic's position names it).
func Describe(err error) string {
	var nr *NotRegularError
	var tl *TooLargeError
	var pe *fs.PathError
	switch {
	case errors.As(err, &nr):
		return fmt.Sprintf("not a regular file: it is %s", Kind(nr.Mode))
	case errors.As(err, &tl):
		if tl.Size > 0 {
			return fmt.Sprintf("file is %d bytes, larger than the %d-byte limit", tl.Size, tl.Limit)
		}
		return fmt.Sprintf("file holds more than the %d-byte limit", tl.Limit)
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.As(err, &pe):
		return pe.Err.Error()
	}
	return err.Error()
}
