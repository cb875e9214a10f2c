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
// about 60 refresh messages a second.
package ui
