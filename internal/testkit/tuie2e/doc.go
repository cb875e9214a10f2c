// Package tuie2e holds the end-to-end tests of mcpscope's TUI: they build
// the real binary, run it in a detached tmux session, type keys with
// `tmux send-keys` and read the screen with `tmux capture-pane`. Run them
// with -update-docs (or MCPSCOPE_UPDATE_DOCS=1) to rewrite the text
// screenshots under docs/.
package tuie2e
