// The cdk8s CLI require()s validation plugins into its own process. This file hands it the library
// from source, as examples/main.ts imports it; in your own app, cdk8s.yaml names the installed
// package instead (see the README: "Checking a whole app with the cdk8s CLI").
require('ts-node').register({ transpileOnly: true, project: require.resolve('./tsconfig.json') });
module.exports = require('../src');
