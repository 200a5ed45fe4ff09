// Package typedtool registers a tool on the official Go MCP SDK's typed path: the top-level
// mcp.AddTool with a handler of a Go input type. The SDK unmarshals and validates the arguments
// against the tool's input schema (applying its defaults) before the handler runs, and hands the
// handler the input as that type. The input type here is map[string]any, one of the two kinds
// the SDK accepts (a map or a struct), with the case's schema given as the tool's InputSchema
// (a *jsonschema.Schema), since a Go struct type cannot be written for a schema known only at run
// time, and the schema a struct generates could not say most of the corpus's schemas.
package typedtool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Add registers the tool name with the input schema schema (its JSON text) on server with
// mcp.AddTool; received is called with the input the handler got each time the tool runs, and the
// tool answers "ok". An error is the SDK's refusal, worded `<the call> refused <what>: <its
// error>`: json.Unmarshal refusing the schema as a *jsonschema.Schema, json.Marshal refusing to
// write it back (as tools/list must), or mcp.AddTool panicking on it.
func Add(server *mcp.Server, name, description string, schema json.RawMessage, received func(map[string]any)) (err error) {
	var input *jsonschema.Schema
	if err := json.Unmarshal(schema, &input); err != nil {
		return fmt.Errorf("json.Unmarshal refused the schema as a *jsonschema.Schema: %v", err)
	}
	if input == nil {
		return fmt.Errorf("json.Unmarshal refused the schema as a *jsonschema.Schema: it is null")
	}
	if _, err := json.Marshal(input); err != nil {
		return fmt.Errorf("json.Marshal refused the *jsonschema.Schema: %v", err)
	}
	defer func() {
		if recovered := recover(); recovered != nil {
			err = fmt.Errorf("mcp.AddTool refused the schema: %v", recovered)
		}
	}()
	mcp.AddTool(server, &mcp.Tool{Name: name, Description: description, InputSchema: input},
		func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
			received(in)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
	return nil
}
