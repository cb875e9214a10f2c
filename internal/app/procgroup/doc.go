// Package procgroup starts a server process in a process group of its own
// and stops the group: the shutdown steps a stdio transport and the stdio
// proxy share (close stdin, SIGTERM the group, SIGKILL the group), and how
// a process's end is spelled.
package procgroup
