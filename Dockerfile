# A minimal image holding the static tool-conformance binary, the corpus built into it; the
# corpus, schemas and rule files are also copied to /usr/share/tool-conformance for --cases.
#   docker run --rm ghcr.io/tool-conformance/tool-conformance run
FROM rust:1-alpine AS build
RUN apk add --no-cache musl-dev
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin tool-conformance --target x86_64-unknown-linux-musl

FROM scratch
COPY --from=build /src/target/x86_64-unknown-linux-musl/release/tool-conformance /usr/local/bin/tool-conformance
COPY --from=build /src/cases /usr/share/tool-conformance/cases
COPY --from=build /src/schemas /usr/share/tool-conformance/schemas
COPY --from=build /src/specs /usr/share/tool-conformance/specs
COPY --from=build /src/LICENSE-MIT /src/LICENSE-APACHE /usr/share/tool-conformance/
ENTRYPOINT ["/usr/local/bin/tool-conformance"]
CMD ["run"]
