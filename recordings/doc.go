// Package recordings turns what mcpscope captured into a file and back.
//
// A recording is JSON Lines (docs/recording-format.md): a header line,
// then one line per captured frame, stream mark, stream label, SSE stream
// event and stream total, in the order they happened, and an end line
// when the session closed cleanly. A Writer is a capture Sink teed beside
// the session's Store; a Reader reads the lines back, and Apply feeds them
// into a fresh Store, so every pane works on a recording unchanged.
//
// The file is append-only and flushed at least every 100 ms and after
// every control message, so a recording cut short (a kill, a full disk)
// still opens: the Reader reports the torn last line and everything before
// it replays.
package recordings
