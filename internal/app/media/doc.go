// Package media reads the images and audio MCP content carries and draws
// them for a terminal: an image decoded within bounds (Decode) as a
// half-block preview that any terminal shows (HalfBlocks) or, where the
// terminal can show pictures, in the kitty graphics protocol, iTerm2
// inline images or sixel (Inline, Detect), or as a Picture scaled to its
// box of cells that a TUI sends in those protocols (PictureLater); a WAV
// clip's format, duration and a level strip (ParseWAV, Strip); a content
// block's default file name (FileName). Nothing here prints: callers
// decide where the text goes.
package media
