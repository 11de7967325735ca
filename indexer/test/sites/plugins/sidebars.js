export default {
  docs: ['intro', {type: 'category', label: 'Installing', items: ['guide/install']}],
};
