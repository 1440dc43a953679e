#!/usr/bin/env node
// cwp <operation> [--input value ...]: the cwp GitHub Actions' operations from a terminal or any
// CI system. `cwp --help` lists them; `cwp <operation> --help` lists its inputs.
import "../dist/index.js";
