// Package tool serves the run's manifest as mark3labs/mcp-go users serve tools they have a JSON
// Schema for: mcp.NewToolWithRawSchema(name, description, schema) and MCPServer.AddTool, on
// server.NewMCPServer (with server.WithInputSchemaValidation() when validated), over stdio. The
// handler records request.Params.Arguments, the value mcp-go decoded from the call (what
// GetArguments and the Require* accessors read), with the Go kit's Record.
package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	tc "github.com/tool-conformance/tool-conformance/adapters/go"
)

// Version is the mcp-go module version built in.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/mark3labs/mcp-go" {
				return dep.Version
			}
		}
	}
	return "unknown"
}

// NewServer is the server the rows measure: the default one, or with input schema validation.
func NewServer(name string, validated bool) *server.MCPServer {
	var options []server.ServerOption
	if validated {
		options = append(options, server.WithInputSchemaValidation())
	}
	return server.NewMCPServer(name, Version(), options...)
}

// Add registers the tool name with the input schema schema (its JSON text) on s; received is
// called with what the handler got each time the tool runs, and the tool answers "ok". An error
// is mcp-go's refusal (a panic of AddTool, recovered), worded `<the call> refused <what>: <its
// error>`.
func Add(s *server.MCPServer, name, description string, schema json.RawMessage, received func(any)) (err error) {
	defer func() {
		if recovered := recover(); recovered != nil {
			err = fmt.Errorf("MCPServer.AddTool refused the tool: %v", recovered)
		}
	}()
	s.AddTool(mcp.NewToolWithRawSchema(name, description, schema),
		func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			received(request.Params.Arguments)
			return mcp.NewToolResultText("ok"), nil
		})
	return nil
}

// Serve registers every tool of the run's manifest (TOOL_CONFORMANCE_MANIFEST) and serves stdio,
// recording each call in TOOL_CONFORMANCE_RECORD.
func Serve(name string, validated bool) {
	tools, err := tc.LoadManifest("")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := NewServer(name, validated)
	for _, t := range tools {
		toolName := t.Name
		err := Add(s, toolName, t.Description, t.InputSchema, func(arguments any) {
			if err := tc.Record(toolName, arguments); err != nil {
				panic(err)
			}
		})
		if err != nil {
			if err := tc.Refuse(toolName, err.Error()); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
