// Jest loads the sequencer before any transform is set up, hence plain CommonJS.
const Sequencer = require("@jest/test-sequencer").default;

/**
 * The integration project's files first (jest's own order within each: failed first, then the
 * slowest of the last run, then the largest): they are the long ones, and a long file started
 * last would run alone at the end while the other workers sit idle.
 */
class IntegrationFirstSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const isIntegration = (test) => test.context.config.displayName?.name === "integration";
    return [...ordered.filter(isIntegration), ...ordered.filter((test) => !isIntegration(test))];
  }
}

module.exports = IntegrationFirstSequencer;
