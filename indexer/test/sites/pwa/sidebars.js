export default {
  docs: ['intro', 'offline'],
};
