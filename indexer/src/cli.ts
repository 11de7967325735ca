// Placeholder until the indexer CLI lands (issue 7).
process.stderr.write('docs-indexer: not implemented yet\n');
process.exitCode = 2;
