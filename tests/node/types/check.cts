// The CommonJS view of the same declarations (require of an ES module, TypeScript >= 5.8).
import kubefit = require('kubefit');

const result: kubefit.Evaluation = kubefit.evaluate('kind: Node');
export const nodes: kubefit.Report['nodes'] = result.report.nodes;
