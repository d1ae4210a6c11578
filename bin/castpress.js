#!/usr/bin/env node
// Runs the built CLI (npm run build). In a checkout without dist/: npx tsx src/cli/index.ts <command>.
import { main } from '../dist/cli/index.js';

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
