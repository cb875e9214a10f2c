// Package cli is mcpscope's command line: the cobra command tree (run through
// charm's fang), the headless commands call, tools, resources and prompts, the
// TARGET parser, the scripted answers to server questions (--answers), the
// frame trace (--trace) and the mapping of failures to exit codes.
//
// The commands drive the same session engine as the TUI (package client); a
// run prints the result JSON on stdout and everything else on stderr.
package cli
