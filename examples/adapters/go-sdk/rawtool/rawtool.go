// Package rawtool registers a tool the way a user of the official Go MCP SDK registers one from a
// JSON Schema it already has (the raw path): the schema is unmarshalled into a
// *jsonschema.Schema and given to Server.AddTool with a ToolHandler, which receives the call's
// arguments as json.RawMessage. The SDK does not validate them on this path (its documentation:
// "Unmarshaling the arguments and validating them against the input schema are the caller's
// responsibility"), so neither does the handler: it hands what it received on.
package rawtool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Add registers the tool name with the input schema schema (its JSON text) on server; received
// is called with the arguments each time the tool runs, and the tool answers "ok". An error is
// the SDK's refusal, worded `<the call> refused <what>: <its error>`: json.Unmarshal refusing the
// schema as a *jsonschema.Schema, json.Marshal
// refusing to write that schema back (as tools/list must), or Server.AddTool panicking on it.
func Add(server *mcp.Server, name, description string, schema json.RawMessage, received func(json.RawMessage)) (err error) {
	var input *jsonschema.Schema
	if err := json.Unmarshal(schema, &input); err != nil {
		return fmt.Errorf("json.Unmarshal refused the schema as a *jsonschema.Schema: %v", err)
	}
	if input == nil { // the schema null
		return fmt.Errorf("json.Unmarshal refused the schema as a *jsonschema.Schema: it is null")
	}
	// tools/list marshals every tool's schema: one the SDK's schema type cannot write back makes
	// the SDK answer no tools/list at all (for every tool), so it is declined with that error.
	if _, err := json.Marshal(input); err != nil {
		return fmt.Errorf("json.Marshal refused the *jsonschema.Schema: %v", err)
	}
	defer func() {
		if recovered := recover(); recovered != nil {
			err = fmt.Errorf("Server.AddTool refused the schema: %v", recovered)
		}
	}()
	server.AddTool(&mcp.Tool{Name: name, Description: description, InputSchema: input},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			received(req.Params.Arguments)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	return nil
}
