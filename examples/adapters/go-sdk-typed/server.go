// The official Go MCP SDK's typed path (mcp.AddTool) as an MCP server on stdio, for `tool-conformance run
// --mcp-server`: every tool of the run's manifest is registered with typedtool.Add (the schema as a
// *jsonschema.Schema, mcp.AddTool with a map[string]any input), its handler recording what it received with the Go kit's
// Record; a tool the SDK refuses is left out, and the record says why (the kit's Refuse).
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	tc "github.com/tool-conformance/tool-conformance/adapters/go"
	"github.com/tool-conformance/tool-conformance/examples/adapters/go-sdk-typed/typedtool"
)

func version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/modelcontextprotocol/go-sdk" {
				return dep.Version
			}
		}
	}
	return "unknown"
}

func main() {
	tools, err := tc.LoadManifest("")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "go-sdk-typed", Version: version()}, nil)
	for _, tool := range tools {
		name := tool.Name
		err := typedtool.Add(server, name, tool.Description, tool.InputSchema, func(arguments map[string]any) {
			if err := tc.Record(name, arguments); err != nil {
				panic(err)
			}
		})
		if err != nil {
			if err := tc.Refuse(name, err.Error()); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
