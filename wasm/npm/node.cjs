// CommonJS entry point. Node >= 20.19 and >= 22.12 load ES modules with require() without
// a flag or a warning, and both entry points then share one module instance.
module.exports = require('./node.js');
