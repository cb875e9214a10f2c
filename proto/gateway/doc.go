// Package gateway holds the gateway streaming dialect (seed 003):
// StreamMessage text frames, binary chunk frames with their .NET-order
// GUIDs, the WebSocket accept key, and the frames of the WebSocket tool
// dialect (seed 004).
package gateway
