package capture

import "errors"

// cutByClient is what a frame's error implements when mcpscope itself cut
// the frame short (it closed the session while the peer was writing): the
// bytes are kept, but the peer broke nothing.
type cutByClient interface{ CutByClient() bool }

// CutByClient reports whether a frame's error says mcpscope itself cut
// the frame short.
func CutByClient(err error) bool {
	var c cutByClient
	return errors.As(err, &c) && c.CutByClient()
}
