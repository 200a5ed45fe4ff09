package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One tool of a {@code register} request (or of a manifest): its name, its description (null when
 * the request gives none) and its input schema, an exact tree of {@link Json#read}.
 */
public record Tool(String name, String description, JsonNode inputSchema) {}
