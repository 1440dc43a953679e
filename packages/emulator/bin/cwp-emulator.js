#!/usr/bin/env node
// cwp-emulator [--host 127.0.0.1] [--port 4010] [--seed N] [--speed X] [--rate-limit N]
//              [--scale TEAMSxPROJECTSxRESOURCES] [--log-page-cap N]
// The first line of standard output is "cwp-emulator listening on http://HOST:PORT".
import { emulatorMain } from "../dist/index.js";

await emulatorMain(process.argv.slice(2));
