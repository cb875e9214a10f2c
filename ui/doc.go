// Package ui is mcpscope's terminal user interface: one Bubble Tea root
// model (Model) that owns focus, layout and routing, and plain panes that
// render windows of the capture store.
//
// The panes are Control traffic (one row per captured frame, read by window
// from the store), Execution streams, Datagram channels, Detail (pretty
// JSON, CBOR diagnostic notation, metadata, decode errors), Hex dump and
// the stderr of a stdio server, with a status bar below them. Transports
// never wait for the UI: they feed the capture.Store, and the UI learns of
// new frames through the store's Subscribe signal, turned into at most
// about 60 refresh messages a second. What the status bar says of the
// link (dialect, state, encoding) comes from client.LinkState: the UI
// imports no concrete transport.
//
// A screen that takes over the body is a screen.Screen, handed a
// screen.Host by the root, each in its own package: the explorer
// (ui/explore) and the wizards it opens (ui/wizard), the raw request
// composer (ui/compose), the load test of one call (ui/bench), and the
// server's questions and the roots editor (ui/question). The looks every pane and screen share are in ui/look,
// the navigation keys in ui/nav and the fuzzy filter in ui/fuzzy.
package ui
