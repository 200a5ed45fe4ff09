module github.com/tool-conformance/tool-conformance/adapters/go

go 1.22
