// The one tslib helper that @docusaurus/utils-common's CommonJS build calls in the browser
// (see index.ts). Its body is tslib's own.
export function __importDefault(mod) {
  return mod && mod.__esModule ? mod : {default: mod};
}
