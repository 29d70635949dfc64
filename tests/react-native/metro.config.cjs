// Metro as a React Native app configures it (@react-native/metro-config's defaults: the
// `react-native` export condition, @react-native/babel-preset through React Native's Babel
// transformer, the @react-native/js-polyfills console), with what this project has instead of
// react-native itself: app/host.js stands for what the native side installs before the
// bundle runs, and app/initialize-core.js for react-native's InitializeCore.
const path = require("node:path");
const { getDefaultConfig, mergeConfig } = require("@react-native/metro-config");

const root = __dirname;

module.exports = mergeConfig(getDefaultConfig(root), {
  projectRoot: root,
  watchFolders: [root],
  cacheStores: [], // every run transforms afresh: the package under test changes between runs
  resolver: { useWatchman: false },
  reporter: { update() {} }, // no banner or progress in the test output
  serializer: {
    getPolyfills: () => [path.join(root, "app/host.js"), ...require("@react-native/js-polyfills")()],
    getModulesRunBeforeMainModule: () => [path.join(root, "app/initialize-core.js")],
  },
  transformer: {
    // Metro's default, pinned here because the package depends on it: lib/mcp.js imports the
    // stdio MCP transport through a variable specifier (Node only), which hermesc rejects
    // unless the bundler turns it into a run-time throw.
    dynamicDepsInPackages: "throwAtRuntime",
  },
});
