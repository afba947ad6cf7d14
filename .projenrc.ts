import { cdk8s, javascript } from 'projen';

const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-admission',
  description:
    'cdk8s constructs for Kubernetes admission control: ValidatingAdmissionPolicy, MutatingAdmissionPolicy and admission webhooks, checked at synth time',
  author: 'cdk8s-admission maintainers',
  authorAddress: 'maintainers@cdk8s-admission.dev',
  repositoryUrl: 'https://github.com/cdk8s-admission/cdk8s-admission.git',
  defaultReleaseBranch: 'main',
  license: 'Apache-2.0',
  keywords: [
    'cdk8s',
    'kubernetes',
    'k8s',
    'admission',
    'validating-admission-policy',
    'mutating-admission-policy',
    'webhook',
    'cel',
  ],
  stability: 'experimental',

  projenrcTs: true,
  packageManager: javascript.NodePackageManager.NPM,
  minNodeVersion: '20.16.0',
  workflowNodeVersion: '22',

  jsiiVersion: '~6.0.0',
  cdk8sVersion: '2.70.0',
  constructsVersion: '10.3.0',

  // One name per target language, all derived from the npm package name.
  publishToPypi: {
    distName: 'cdk8s-admission',
    module: 'cdk8s_admission',
  },
  publishToMaven: {
    javaPackage: 'io.github.cdk8sadmission',
    mavenGroupId: 'io.github.cdk8s-admission',
    mavenArtifactId: 'cdk8s-admission',
  },
  publishToNuget: {
    dotNetNamespace: 'Cdk8sAdmission',
    packageId: 'Cdk8sAdmission',
  },
  publishToGo: {
    moduleName: 'github.com/cdk8s-admission/cdk8s-admission-go',
    packageName: 'cdk8sadmission',
  },

  // Parses the YAML given to PolicyTester.fromYaml; bundled, as jsii requires of non-jsii dependencies.
  bundledDeps: ['yaml@^2.8.0'],

  devDeps: [
    'fast-check@^4',
    // Only for tests: Webhook.forService must work with a cdk8s-plus Service (the library does not depend on it).
    'cdk8s-plus-33@^2.5.57',
    // The CEL engine and RE2 are bundled into vendor/cel-engine.cjs at build time (see the
    // bundle:cel task), so they are devDependencies: the published package carries the bundle.
    '@marcbachmann/cel-js@8.0.0',
    're2js@2.10.0',
    'esbuild@^0.28.2',
    // The CEL conformance suite, as data, for bench/cel-conformance.ts.
    '@bufbuild/cel-spec@0.6.1',
    // The real `cdk8s synth`, for test/cli/: the validation plugin under the CLI that loads it.
    'cdk8s-cli@^2.207.60',
  ],

  githubOptions: { mergify: false },
  jestOptions: {
    // CI must fail on snapshot drift instead of rewriting snapshots; `npx projen test:update` updates them.
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      testPathIgnorePatterns: ['/node_modules/', '/examples/dist/'],
      // The example app's own policy tests run with the library's.
      testMatch: ['<rootDir>/@(src|test|examples)/**/*(*.)@(spec|test).ts?(x)', '<rootDir>/@(projenrc)/**/*(*.)@(spec|test).ts?(x)'],
      coveragePathIgnorePatterns: ['/node_modules/', '/examples/dist/', '/vendor/'],
    },
  },
  gitignore: ['/examples/dist/', '/vendor/'],
  eslintOptions: { dirs: ['src'], devdirs: ['test', 'examples', 'scripts', 'bench', 'conformance', 'projenrc', '.projenrc.ts'] },
});

// jsii 6 prints an end-of-life banner on Node 20; it is informational, not a failure.
project.tasks.addEnvironment('JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION', '20');

// The CEL engine (@marcbachmann/cel-js, ESM-only) and re2js are bundled into one CommonJS file,
// vendor/cel-engine.cjs (gitignored, published), so that the library loads with require() everywhere,
// including users' jest suites, with no transform configuration. src/cel/engine.ts and
// lib/cel/engine.js both load it as ../../vendor/cel-engine.cjs.
const bundleCel = project.addTask('bundle:cel', {
  description: 'Bundle the CEL engine and RE2 into vendor/cel-engine.cjs (skipped when up to date)',
  exec: 'ts-node --project scripts/tsconfig.json scripts/bundle-cel-engine.ts',
});
project.preCompileTask.spawn(bundleCel);
project.testTask.prependSpawn(bundleCel);
project.tasks.tryFind('test:watch')?.prependSpawn(bundleCel);
project.tasks.tryFind('test:update')?.prependSpawn(bundleCel);

const benchCelConformance = project.addTask('bench:cel-conformance', {
  description: 'Run the CEL conformance suite (@bufbuild/cel-spec) against the Kubernetes CEL layer',
  exec: 'ts-node --project bench/tsconfig.json bench/cel-conformance.ts',
  receiveArgs: true,
});
benchCelConformance.prependSpawn(bundleCel);
const benchCelCompile = project.addTask('bench:cel-compile', {
  description: 'Compile 10,000 realistic expressions, Kubernetes CEL layer against the raw engine',
  env: { NODE_OPTIONS: '--expose-gc' },
  exec: 'ts-node --project bench/tsconfig.json bench/cel-compile.ts',
  receiveArgs: true,
});
benchCelCompile.prependSpawn(bundleCel);
const benchPolicyTester = project.addTask('bench:policy-tester', {
  description: 'Reviews per second of PolicyTester against raw CEL evaluation of the same expressions',
  exec: 'ts-node --project bench/tsconfig.json bench/policy-tester.ts',
});
benchPolicyTester.prependSpawn(bundleCel);
const benchSynth = project.addTask('bench:synth', {
  description: 'Synth cost of the constructs (all checks) against raw ApiObjects with the same manifests',
  exec: 'ts-node --project bench/tsconfig.json bench/synth.ts',
});
benchSynth.prependSpawn(bundleCel);
const benchValidationScaling = project.addTask('bench:validation-scaling', {
  description: 'Validation time of one manifest with N and 2N variables, validations and webhooks',
  exec: 'ts-node --project bench/tsconfig.json bench/validation-scaling.ts',
});
benchValidationScaling.prependSpawn(bundleCel);
const benchKindNarrowing = project.addTask('bench:kind-narrowing', {
  description: 'Cost of narrowing multi-kind expressions per kind against the typed compile it comes before',
  exec: 'ts-node --project bench/tsconfig.json bench/kind-narrowing.ts',
});
benchKindNarrowing.prependSpawn(bundleCel);
const bench = project.addTask('bench', { description: 'Run all benchmarks (see bench/README.md)' });
bench.spawn(benchSynth);
bench.spawn(benchValidationScaling);
bench.spawn(benchCelConformance);
bench.spawn(benchCelCompile);
bench.spawn(benchPolicyTester);
bench.spawn(benchKindNarrowing);

project.addTask('generate:wire', {
  description: 'Regenerate src/wire/admissionregistration*.ts from schemas/kubernetes.json (admissionregistration.k8s.io/v1 of the newest release); --check compares',
  exec: 'ts-node --project scripts/tsconfig.json scripts/generate-wire-types.ts',
  receiveArgs: true,
});
// Generated files checked in, collapsed in GitHub's diffs (linguist-generated): the wire types carry a
// "Generated by ... Do not edit." header, schemas/*.json cannot (JSON), schemas/README.md says so, and
// go.sum is the go command's. test/generated-files.test.ts checks this list against the headers.
for (const generated of ['/src/wire/admissionregistration.ts', '/src/wire/admissionregistration-schema.ts', '/schemas/*.json', 'go.sum']) {
  project.gitattributes.addAttributes(generated, 'linguist-generated');
}

project.addTask('generate:schemas', {
  description: 'Regenerate schemas/kubernetes.json from the OpenAPI specs of k8s.io/kubernetes (Go module proxy); --check compares',
  exec: 'ts-node --project scripts/tsconfig.json scripts/generate-resource-schemas.ts',
  receiveArgs: true,
});

project.addTask('generate:go-types', {
  description: 'Regenerate schemas/go-types.json (Go encodings, defaulters, feature gates) from the Go source of k8s.io/kubernetes (Go module proxy); --check compares',
  exec: 'ts-node --project scripts/tsconfig.json scripts/generate-go-types.ts',
  receiveArgs: true,
});

const synthExample = project.addTask('synth:example', {
  description: 'Synthesize the example app in examples/ into examples/dist/',
  env: { CDK8S_OUTDIR: 'examples/dist' },
});
synthExample.exec('rm -rf examples/dist');
synthExample.spawn(bundleCel);
synthExample.exec('ts-node --project examples/tsconfig.json examples/main.ts');

// The real kube-apiserver as the oracle (conformance/README.md): a Go module builds it and an
// embedded etcd into conformance/.bin/oracle (git-ignored, rebuilt only when its sources change),
// and the differential suites compare the library's answers with the apiserver's.
const conformance = project.addTask('conformance', {
  description: 'Differential suites against a real kube-apiserver (builds conformance/.bin/oracle when missing); options: --seed N --manifests N --cel N --report FILE',
});
conformance.exec('[ -x .bin/oracle ] && [ -z "$(find go.mod go.sum cmd -newer .bin/oracle)" ] || go build -trimpath -o .bin/oracle ./cmd/oracle', { cwd: 'conformance' });
conformance.spawn(synthExample);
// The corpus: every manifest the jest suite validates and every review it makes, recorded by conformance/src/record-corpus.ts.
conformance.exec('rm -rf conformance/.out/recorded');
conformance.exec('jest --silent --coverage=false --setupFilesAfterEnv ./conformance/src/record-corpus.ts', {
  env: { CDK8S_ADMISSION_RECORD_DIR: 'conformance/.out/recorded' },
});
conformance.exec('ts-node --project conformance/tsconfig.json conformance/src/run.ts', { receiveArgs: true });
project.gitignore.addPatterns('/conformance/.bin/', '/conformance/.out/');

// Packages for every jsii language. Python, Java and Go are built for real (a wheel, a Maven
// repository and a Go module under dist/) and used by the test programs in test/languages/; .NET
// stays at generated code, since no .NET SDK can be installed where this project builds.
// Go: cdk8s's own Go module is served by a local module proxy (scripts/with-local-go-proxy.sh).
const packageGo = project.tasks.tryFind('package:go')!;
packageGo.reset('scripts/with-local-go-proxy.sh jsii-pacmak -v --target go');
const packageDotnetCode = project.addTask('package:dotnet:code', {
  description: 'Generate (not build) the .NET binding into dist/code/dotnet: no .NET SDK here',
  exec: 'jsii-pacmak --code-only --target dotnet --outdir dist/code',
});

// The test programs: each installs the freshly built package with cdk8s from its own registry
// (PyPI, Maven Central, the Go module proxy) and uses it as a user of that language would.
const testLanguages = project.addTask('test:languages', {
  description: 'Run the Python, Java and Go test programs against the packages in dist/ (build them with package-all)',
});
for (const [language, run] of [
  ['python', 'test/languages/python/run.sh'],
  ['java', 'test/languages/java/run.sh'],
  ['go', 'scripts/with-local-go-proxy.sh test/languages/go/run.sh'],
]) {
  testLanguages.spawn(project.addTask(`test:${language}`, {
    description: `Run the ${language} test program against the package in dist/${language}/ (see test/languages/README.md)`,
    exec: run,
    receiveArgs: true,
  }));
}
// The HTML coverage report in headless Chromium (Debian's package; CI installs it): the counts it
// shows against coverage.json, and the uncovered parts marked. A screenshot goes to test-reports/browser/.
project.addTask('test:browser', {
  description: 'Check the HTML policy coverage report in headless Chromium (needs /usr/bin/chromium, or CHROMIUM=path)',
  exec: 'ts-node --project scripts/tsconfig.json test/browser/coverage-report.ts',
});
project.addTask('test:plugin-package', {
  description: 'docs/cli-plugin.md\'s cdk8s.yaml for the validation plugin, in a fresh app with the packed library (dist/js/), under the real cdk8s synth',
  exec: 'ts-node --project test/tsconfig.json test/cli/plugin-configuration-docs.ts',
});
project.gitignore.addPatterns(
  '/build/',
  '/test/languages/python/.venv/',
  '__pycache__/',
  '/test/languages/java/.m2/',
  '/test/languages/java/target/',
  '/test/languages/go/go.sum',
  '/test/languages/*/dist/',
);

// README, docs/ and doc-comment examples must compile in jsii-rosetta's strict mode, so that every
// language gets translated examples. Rosetta reads the README from the assembly; the docs/ pages
// get an assembly each (scripts/rosetta-docs.ts).
const rosettaExtract = project.addTask('rosetta:extract', {
  description: 'Compile the README, docs/ and @example snippets with jsii-rosetta (strict): needs a compiled .jsii',
  exec: 'jsii-rosetta extract --strict --fail',
});
rosettaExtract.exec('ts-node --project scripts/tsconfig.json scripts/rosetta-docs.ts');
project.gitignore.addPatterns('/.jsii.tabl.json');

const packageAll = project.tasks.tryFind('package-all')!;
packageAll.reset();
for (const target of ['js', 'python', 'java', 'go']) packageAll.spawn(project.tasks.tryFind(`package:${target}`)!);
packageAll.spawn(packageDotnetCode);

for (const pattern of ['/examples/', '/bench/', '/conformance/', '/.ci/', '/scripts/', '/build/']) {
  project.addPackageIgnore(pattern);
}
// The bundled CEL engine is part of the published package (it is gitignored, not npmignored).
project.addPackageIgnore('!/vendor/');

project.synth();
