package recordings

import "strings"

// ReplayCommand is the command line that replays the recording at path,
// the path quoted for a POSIX shell when it holds anything but letters,
// digits and . _ - / + , : @ % = ~: "mcpscope replay PATH".
func ReplayCommand(path string) string {
	return "mcpscope replay " + shellWord(path)
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/+,:@%=~", r))
	}) < 0
	if plain && s[0] != '~' {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
