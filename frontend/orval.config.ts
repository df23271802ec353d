import { defineConfig } from 'orval';

// Generates typed fetch functions and TanStack Query hooks from the API's committed
// OpenAPI document. The streaming search (tag `stream`) is excluded: orval mistypes
// `text/event-stream` bodies, so it is read by hand in src/lib/sse-stream.ts, its
// events typed by the generated `SearchEvent`.
export default defineConfig({
  leadgen: {
    input: {
      target: '../openapi.json',
      // The stream's event union (`SearchEvent`) is referenced only by the excluded
      // operations: keep every schema so its types are generated all the same.
      filters: { mode: 'exclude', tags: ['stream', 'Stream'], includeUnreferencedSchemas: true },
    },
    output: {
      target: 'src/api/gen/leadgen.ts',
      schemas: 'src/api/gen/model',
      mode: 'tags-split',
      client: 'react-query',
      httpClient: 'fetch',
      clean: true,
      indexFiles: false,
      override: {
        mutator: { path: 'src/lib/api-fetch.ts', name: 'apiFetch' },
        fetch: { includeHttpResponseReturnType: false },
        query: { version: 5 },
      },
    },
  },
});
