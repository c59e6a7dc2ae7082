/**
 * On Node below 22 the AWS SDK prints a NodeVersionSupportWarning when a client is made: a notice
 * that SDK releases from January 2027 on will need Node 22, not a problem with this run. It is
 * turned off here (the SDK's own switch) so test output shows only what the tests say; Bedrock
 * also runs on Node 22 and 24 in the node matrix, where the notice does not apply. Set for the
 * test files and the processes they start with this environment.
 */
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
