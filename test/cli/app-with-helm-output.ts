// The example app, plus YAML rendered elsewhere (as by a Helm chart) included from the file named
// by its first argument: the app test/cli/cdk8s-synth.test.ts runs under the cdk8s CLI.
import { Chart, Include } from 'cdk8s';
import { buildApp } from '../../examples/main';

const [helmOutput] = process.argv.slice(2);
const app = buildApp();
new Include(new Chart(app, 'policy-controller'), 'helm-output', { url: helmOutput });
app.synth();
