export * from './fs.js';
export * from './server.js';
