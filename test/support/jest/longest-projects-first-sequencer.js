// Jest loads the sequencer before any transform is set up, hence plain CommonJS.
const Sequencer = require("@jest/test-sequencer").default;

/** The projects whose files run longest, first. */
const PROJECT_ORDER = ["integration", "properties", "unit"];

/**
 * Files of the long projects first (jest's own order within each: failed first, then the
 * slowest of the last run, then the largest): a long file started last would run alone at the
 * end while the other workers sit idle, and a fresh clone has no timings of a last run.
 */
class LongestProjectsFirstSequencer extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = PROJECT_ORDER.indexOf(test.context.config.displayName?.name);
      return index === -1 ? PROJECT_ORDER.length : index;
    };
    const ordered = super.sort(tests);
    return ordered
      .map((test, position) => ({ test, position }))
      .sort((a, b) => rank(a.test) - rank(b.test) || a.position - b.position)
      .map(({ test }) => test);
  }
}

module.exports = LongestProjectsFirstSequencer;
