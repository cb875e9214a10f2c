package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/term"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// inputEnvPrefix starts the environment variable that answers a config
// file's ${input:id} without asking: MCPSCOPE_INPUT_ and the id in upper
// case, every character that is not a letter or digit made '_'.
const inputEnvPrefix = "MCPSCOPE_INPUT_"

// inputEnvName is the variable that answers the input id.
func inputEnvName(id string) string {
	return inputEnvPrefix + strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToUpper(r)
		}
		return '_'
	}, id)
}

// askInput answers the ${input:id} of server s: from the environment
// (inputEnvName), else by asking on the terminal (without echo for a
// password), else an error naming the input and the variable. Each id is
// asked once.
func askInput(s mcpconfig.Server, in io.Reader, diag io.Writer) func(string) (string, error) {
	answers := map[string]string{}
	var lines *bufio.Reader
	return func(id string) (string, error) {
		if v, ok := answers[id]; ok {
			return v, nil
		}
		if v, ok := os.LookupEnv(inputEnvName(id)); ok {
			answers[id] = v
			return v, nil
		}
		def := s.Inputs[id]
		what := quote(id)
		if def.Description != "" {
			what += " (" + oneLine(def.Description) + ")"
		}
		f, ok := in.(*os.File)
		if !ok || !isTerminal(f) {
			return "", usagef("the server %s asks for the input %s: set %s, or run mcpscope on a terminal to type it", quote(s.Name), what, inputEnvName(id))
		}
		fmt.Fprintf(diag, "%s asks for %s: ", quote(s.Name), what)
		var v string
		if def.Password {
			b, err := term.ReadPassword(f.Fd())
			fmt.Fprintln(diag)
			if err != nil {
				return "", fmt.Errorf("reading the input %s: %w", quote(id), err)
			}
			v = string(b)
		} else {
			if lines == nil {
				lines = bufio.NewReader(f)
			}
			line, err := lines.ReadString('\n')
			if err != nil && line == "" {
				return "", fmt.Errorf("reading the input %s: %w", quote(id), err)
			}
			v = strings.TrimRight(line, "\r\n")
		}
		if v == "" {
			v = def.Default
		}
		answers[id] = v
		return v, nil
	}
}
