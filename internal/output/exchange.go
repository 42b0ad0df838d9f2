package output

import "errors"

// errNoExchange: the system or file system cannot swap two folders
// atomically (exchange); the caller moves them one after the other.
var errNoExchange = errors.New("no atomic exchange here")
