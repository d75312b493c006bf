#!/usr/bin/env node
// Entry of the operator CLI and of every role (`svc serve`, `svc api`, ...).
// It runs the compiled code; `npm install` builds it through the `prepare` script.
import '../dist/cli.js';
