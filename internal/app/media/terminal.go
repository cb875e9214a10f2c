package media

import (
	"fmt"
	"strings"
)

// Protocol is how a terminal is sent a picture.
type Protocol int

// The ways to show a picture, from none to the terminals' own protocols.
const (
	Off    Protocol = iota // no picture, the one-line description only
	Blocks                 // half blocks in 24-bit colour: any terminal
	Kitty                  // the kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole)
	ITerm                  // iTerm2 inline images, OSC 1337 (iTerm2, WezTerm, mintty, VS Code)
	Sixel                  // DEC sixel (foot, mlterm, Windows Terminal, xterm -ti vt340)
)

// EnvVar overrides Detect: kitty, iterm, sixel, blocks or off.
const EnvVar = "MCPSCOPE_IMAGES"

var protocolNames = []string{"off", "blocks", "kitty", "iterm", "sixel"}

// String is the protocol's name as EnvVar spells it.
func (p Protocol) String() string {
	if p < 0 || int(p) >= len(protocolNames) {
		return fmt.Sprintf("Protocol(%d)", int(p))
	}
	return protocolNames[p]
}

// ParseProtocol reads a protocol's name as EnvVar spells it.
func ParseProtocol(s string) (Protocol, error) {
	for i, n := range protocolNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Protocol(i), nil
		}
	}
	return Off, fmt.Errorf("%s=%q: want one of %s", EnvVar, s, strings.Join(protocolNames, ", "))
}

// Detect says how the terminal the environment describes is sent a
// picture: EnvVar when set (a bad value is an error, with Blocks), else
// what TERM, TERM_PROGRAM, LC_TERMINAL and the variables terminals set of
// their own (KITTY_WINDOW_ID, WEZTERM_EXECUTABLE, WT_SESSION, …) name.
// Inside tmux or screen, which do not pass pictures on unless configured
// to, it is Blocks.
func Detect(getenv func(string) string) (Protocol, error) {
	if v := getenv(EnvVar); v != "" {
		p, err := ParseProtocol(v)
		if err != nil {
			return Blocks, err
		}
		return p, nil
	}
	term, program := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case getenv("TMUX") != "" || strings.HasPrefix(term, "screen") || strings.HasPrefix(term, "tmux"):
		return Blocks, nil
	case term == "dumb":
		return Off, nil
	case getenv("KITTY_WINDOW_ID") != "" || term == "xterm-kitty" || term == "xterm-ghostty" || program == "ghostty":
		return Kitty, nil
	case program == "iTerm.app" || getenv("LC_TERMINAL") == "iTerm2" || program == "WezTerm" ||
		getenv("WEZTERM_EXECUTABLE") != "" || program == "mintty" || program == "vscode":
		return ITerm, nil
	case getenv("KONSOLE_VERSION") != "":
		return Kitty, nil
	case getenv("WT_SESSION") != "" || strings.HasPrefix(term, "foot") || strings.HasPrefix(term, "mlterm") ||
		strings.HasPrefix(term, "contour") || term == "yaft-256color":
		return Sixel, nil
	}
	return Blocks, nil
}
