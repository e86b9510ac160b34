export * from './fs.js';
