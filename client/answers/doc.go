// Package answers answers the questions a server asks from an answers file
// (JSON or YAML), in order of arrival per kind: elicitation/create,
// sampling/createMessage, roots/list and the prompts of an interactive
// session. It also holds the steps `mcpscope script` runs. The headless
// commands and replay --against answer through it; the TUI asks the user.
package answers
