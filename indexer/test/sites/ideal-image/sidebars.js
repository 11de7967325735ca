export default {
  docs: ['intro', 'display'],
};
