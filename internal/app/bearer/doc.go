// Package bearer is what a transport knows of authorization (RFC 6750,
// as MCP's authorization uses it): a request carries an Authorizer's
// token in its Authorization header, and a refusal — a 401, or a 403
// asking for more scope — is handed to the Authorizer, which may
// authorize and let the request go once more. The OAuth flow that
// implements Authorizer, with its checklist and its capture, lives apart
// (internal/app/oauth), so a transport links none of it.
package bearer
