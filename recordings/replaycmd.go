package recordings

import "al.essio.dev/pkg/shellescape"

// ReplayCommand is the command line that replays the recording at path,
// the path quoted for a POSIX shell when it needs it: "mcpscope replay
// PATH".
func ReplayCommand(path string) string {
	return "mcpscope replay " + shellescape.Quote(path)
}
