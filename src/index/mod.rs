//! The tantivy index over rulebook sections: schema, build, staleness, query, snippets.
