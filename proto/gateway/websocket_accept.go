package gateway

import (
	"crypto/sha1"
	"encoding/base64"
)

// webSocketGUID is the GUID RFC 6455 §1.3 appends to the key.
const webSocketGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// WebSocketAccept is the Sec-WebSocket-Accept that answers an upgrade
// whose Sec-WebSocket-Key is key (RFC 6455 §4.2.2): the base64 of the
// SHA-1 of the key and the GUID.
func WebSocketAccept(key string) string {
	h := sha1.Sum([]byte(key + webSocketGUID))
	return base64.StdEncoding.EncodeToString(h[:])
}
